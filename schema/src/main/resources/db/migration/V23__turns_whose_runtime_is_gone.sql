-- A turn whose runtime is gone is finished by the service (issue 21 item 0): a runtime killed mid-turn, or whose
-- session ended before the turn's Stop hook, never sends the end that finishes its turn, and an open turn would
-- otherwise stay open forever (its changes never diffed, every later change of the workspace credited to it).
--
-- The process that sent a hooked turn's calls, as the hook script names it: its pid, its start time in clock ticks
-- since boot (field 22 of /proc/PID/stat: with the pid it names the process even after the pid is reused) and the
-- boot it ran in (/proc/sys/kernel/random/boot_id, NULL where the system has none). All NULL for a turn no hook
-- call named a process for (a turn begun by `turndiff begin`, a call taken late from the spool, an older hook
-- script): such a turn is never taken for one whose runtime is gone.
ALTER TABLE turn
    ADD COLUMN runtime_pid INTEGER;
ALTER TABLE turn
    ADD COLUMN runtime_start_ticks INTEGER;
ALTER TABLE turn
    ADD COLUMN runtime_boot_id TEXT;
-- Why a turn was finished otherwise than by its own end: 'session_ended' (the runtime's SessionEnd came while the
-- turn was open: its Stop never came), 'runtime_gone' (the service found its process gone and no hook call for a
-- while, and finished it from a scan). NULL for a turn its Stop hook, the next prompt or a command finished.
ALTER TABLE turn
    ADD COLUMN ending TEXT CHECK (ending IN ('session_ended', 'runtime_gone'));
