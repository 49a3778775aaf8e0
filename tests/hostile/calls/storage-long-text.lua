-- expect: (no error)
-- Storage keeps what a save can: a long text is the script's own memory, under its cap.
local big = string.rep("s", 2 * 1024 * 1024)
storage.big = big
