/** One signed-in session of a staff member: a browser that holds a token. */
export interface SessionDto {
  id: string;
  /** Browser and system, read from the User-Agent ("Chrome 140 on Linux"). */
  device: string;
  ip: string;
  signedInAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** The session this request came from. */
  current: boolean;
}

export interface SessionListResponse {
  items: SessionDto[];
}
