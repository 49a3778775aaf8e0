-- expect: the table is read-only
-- Poisoning string.format for the other scripts and the built-in elementals.
rawset(string, "format", function() return "poisoned" end)
