-- expect: longer than the most
-- Ten megabytes of letters: refused before the host copies them out of Lua.
game:give_letters("gold", string.rep("A", 10 * 1024 * 1024))
