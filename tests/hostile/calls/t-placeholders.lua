-- expect: scryptic.t would make a text of more than
-- The string table's `many` holds 1,300 placeholders: filled with 4 MiB, 5 GiB.
local big = string.rep("x", 4 * 1024 * 1024)
local text = scryptic.t("many", { x = big })
