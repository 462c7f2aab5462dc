import { client, type Client } from './http.js';

let counter = 0;

/** Invites a new person with `role` into the owner's organization and accepts as them: a client acting as that member. */
export async function addMemberWithRole(baseUrl: string, owner: Client, organizationId: string, role: 'admin' | 'editor' | 'viewer') {
  const invitation = await owner.post(`/v1/organizations/${organizationId}/invitations`, { role });
  if (invitation.status !== 201) throw new Error(`invite failed: ${invitation.status} ${invitation.text}`);
  counter++;
  const email = `${role}${counter}-${Date.now()}@example.com`;
  const accepted = await client(baseUrl).post(`/v1/invitations/${invitation.body.data.token}/accept`, {
    email,
    password: 'member password 1',
    name: `A ${role}`,
  });
  if (accepted.status !== 201) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`);
  return {
    email,
    userId: accepted.body.data.user.id as string,
    token: accepted.body.data.token as string,
    api: client(baseUrl, accepted.body.data.token),
  };
}
