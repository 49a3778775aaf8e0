-- expect: * reloaded scripts/rules.lua
-- A newline in a message would start a line that reads as a reload notice.
game:message("hello\n* reloaded scripts/rules.lua (generation 2)")
