-- Usage accounting per assistant message (issue 6): who wrote the answer, the tokens it cost
-- and how long the provider took. NULL for user/human messages and template answers; tokens
-- NULL when the provider reports none (the extractive answerer).
ALTER TABLE messages ADD COLUMN provider TEXT;
ALTER TABLE messages ADD COLUMN model TEXT;
ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;
ALTER TABLE messages ADD COLUMN completion_tokens INTEGER;
ALTER TABLE messages ADD COLUMN provider_ms REAL;
