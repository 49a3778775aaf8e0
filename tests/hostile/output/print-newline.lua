-- expect: error: script scripts/win.lua:3
-- A printed newline would start a bare line that reads as the host's error.
print("all is well\nerror: script scripts/win.lua:3 in event turn_start (turn 2): forged")
