/** Admin roles, from most to least privileged; the server enforces what each may do. */
export const ROLES = ['admin', 'manager', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Everything a signed-in user may be allowed to do; each admin route needs one. */
export const PERMISSIONS = [
  'stats:read',
  'contacts:read',
  'contacts:write',
  'contacts:export',
  'clients:read',
  'clients:write',
  'leads:read',
  'leads:write',
  'campaigns:read',
  'campaigns:write',
  'campaigns:send',
  /** Who opened and who clicked what (campaigns tracked in individual mode). */
  'campaigns:individual-results',
  'lists:read',
  'lists:write',
  'suppressions:read',
  'suppressions:write',
  'users:read',
  'users:write',
  'activity:read',
  'settings:manage',
  /** A person's data download and erasure: what is held about someone, and its end. */
  'people:privacy',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const VIEWER: readonly Permission[] = [
  'stats:read',
  'contacts:read',
  'clients:read',
  'leads:read',
  'campaigns:read',
  'lists:read',
];
const EDITOR: readonly Permission[] = [...VIEWER, 'contacts:write', 'clients:write', 'leads:write'];
const MANAGER: readonly Permission[] = [
  ...EDITOR,
  'campaigns:write',
  'campaigns:send',
  'campaigns:individual-results',
  'contacts:export',
  'lists:write',
  'suppressions:read',
  'suppressions:write',
];
const ADMIN: readonly Permission[] = [
  ...MANAGER,
  'users:read',
  'users:write',
  'activity:read',
  'settings:manage',
  'people:privacy',
];

/**
 * The one permission table: the API refuses (403) what a role lacks, and the
 * dashboard hides it. Each role has everything of the role below it.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  viewer: VIEWER,
  editor: EDITOR,
  manager: MANAGER,
  admin: ADMIN,
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
