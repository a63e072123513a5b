-- The prompt that made a turn (the same change as db/migration/V17, which explains it; a shared store keeps none
-- unless its setting 'prompts' is 'keep').
CREATE TABLE turn_prompt
(
    turn_id BIGINT PRIMARY KEY REFERENCES turn (id),
    prompt  TEXT   NOT NULL
);
