-- expect: the table is read-only
-- Rewriting the API for every other script, behind the read-only guard.
rawset(scryptic, "on", function() end)
