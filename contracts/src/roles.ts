/** Admin roles, from most to least privileged; the server enforces what each may do. */
export const ROLES = ['admin', 'manager', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
