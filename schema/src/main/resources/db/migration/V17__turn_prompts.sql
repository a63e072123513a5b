-- The prompt that made a turn (issue 22 item 5): the text a runtime's prompt hook carried when the turn began
-- (Claude Code's and Codex's UserPromptSubmit, Gemini CLI's BeforeAgent), whose first line is the turn's title in
-- the panel and the CLI. At most Prompts.MAX_CHARS characters are kept (a longer prompt is cut, its last kept
-- character an ellipsis).
--
-- A prompt can hold secrets, so it is kept only where the store's owner chose to: a local store keeps prompts
-- unless its setting 'prompts' is 'none' (`turndiff config --prompts none`, or `hooks install --no-prompts`,
-- which sets it); a shared PostgreSQL store keeps none unless its setting 'prompts' is 'keep'. A turn without a
-- kept prompt has no row here.
CREATE TABLE turn_prompt
(
    turn_id INTEGER PRIMARY KEY REFERENCES turn (id),
    prompt  TEXT    NOT NULL
);
