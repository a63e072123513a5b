-- A tracked workspace's zstd dictionary (issue 23 item 7; docs/store-layout.md, "Content dictionaries").
-- A file compressed on its own learns nothing from the files beside it: a zstd frame starts empty, and the
-- small files a tree is made of compress poorly alone (the 250,000 files of `bench scale` to 66 % of their
-- size, spring-framework's 11,403 files to 30 %). A dictionary trained on a sample of the tree's own files
-- gives every frame that start: 0.44x and 0.67x of the per-file sizes on those two trees, on files trained
-- on or not (docs/performance.md, "A tracked workspace's dictionary").
--
-- content_dictionary holds one per workspace, trained when a track first stores enough of its files, and
-- kept for good: a blob names the dictionary its frame was compressed with, and a frame decodes with that
-- one alone (zstd checks the dictionary's id written in the frame). A dictionary is about 110 KB, one per
-- tracked workspace; a collection removes blobs, never a dictionary. Its SHA-256 is checked when it is
-- loaded: every frame of the workspace's baseline decodes with it, so a damaged dictionary is named as such
-- rather than giving wrong bytes under every one of them.
--
-- blob.dictionary_id names it; NULL for every blob compressed without one (all those stored before this
-- version, the contents a snapshot call or the change recorder stores, deltas, chunks). Only a whole zstd
-- frame has one.

CREATE TABLE content_dictionary
(
    id           INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL UNIQUE REFERENCES workspace (id),
    data         BLOB    NOT NULL,
    sha256       TEXT    NOT NULL CHECK (length(sha256) = 64),
    trained_at   INTEGER NOT NULL
);

ALTER TABLE blob ADD COLUMN dictionary_id INTEGER REFERENCES content_dictionary (id)
    CHECK (dictionary_id IS NULL OR encoding = 'zstd');
