// Migration 2: agent origin: API keys or the identity provider.
// Never edit a migration that has shipped: add the next number.
export const name = 'agent origin: API keys or the identity provider';

export const sql = `
-- Which kind of credential claimed the agent id first; the other kind can never act as that agent.
ALTER TABLE agents ADD COLUMN origin TEXT NOT NULL DEFAULT 'api_key';
`;
