import { client, registerAccount } from './http.js';

export const HANDBOOK = [
  {
    title: 'Shipping policy',
    url: 'https://shop.example.com/help/shipping',
    format: 'markdown',
    content: `# Shipping policy

## Delivery times

Standard shipping takes 3 to 5 business days within the EU. Express shipping delivers the next business day when you order before 2 pm.

## International orders

We ship to the United States, Canada and Japan. International delivery takes 7 to 14 business days, and customs fees are paid by the recipient.
`,
  },
  {
    title: 'Returns and refunds',
    url: 'https://shop.example.com/help/returns',
    format: 'markdown',
    content: `# Returns and refunds

## Return window

You can return any unused item within 30 days of delivery. Start a return from the Orders page of your account and print the prepaid label.

## Refunds

Refunds go back to the original payment method within 5 business days after the returned item arrives at our warehouse.
`,
  },
  {
    title: 'Account help',
    url: 'https://shop.example.com/help/account',
    format: 'markdown',
    content: `# Account help

## Reset your password

To reset your password, open Settings, choose Security and click "Reset password". A reset link arrives by email within five minutes.

## Delete your account

To delete your account, write to privacy@shop.example.com. We erase your personal data within 30 days.
`,
  },
] as const;

/** An organization with a knowledge base of HANDBOOK and an assistant connected to it. */
export async function setupShop(baseUrl: string, assistantOverrides: Record<string, unknown> = {}) {
  const account = await registerAccount(baseUrl, 'Shop');
  const kb = await account.api.post('/v1/knowledge-bases', { name: 'Help center' });
  const kbId = kb.body.data.id as string;
  for (const doc of HANDBOOK) await account.api.post(`/v1/knowledge-bases/${kbId}/documents`, doc);
  const assistant = await account.api.post('/v1/assistants', {
    type: 'api',
    name: 'Shop helper',
    knowledgeBases: [{ id: kbId, priority: 5 }],
    ...assistantOverrides,
  });
  if (assistant.status !== 201) throw new Error(`assistant: ${assistant.text}`);
  const assistantId = assistant.body.data.id as string;
  const key = await account.api.post('/v1/api-keys', {
    name: 'all',
    permissions: ['chat', 'conversations:read', 'conversations:write', 'analytics:read', 'assistants:read'],
  });
  return {
    ...account,
    kbId,
    assistantId,
    keyApi: client(baseUrl, key.body.data.key as string),
    chatPath: `/v1/integrations/${assistantId}/chat`,
  };
}
