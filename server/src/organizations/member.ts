import type { Role } from '../auth/permissions.js';

// The shapes both members.ts and member-removal.ts use, apart so that neither imports the other's
// (members.ts settles a removed member's keys and webhooks through member-removal.ts).

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

/** Who acts on the members: a user session with its role, or an API key (no role; `organizations:write` was checked). */
export interface Actor {
  userId: string | null;
  role: Role | null;
}
