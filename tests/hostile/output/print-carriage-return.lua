-- expect: turn 3: gold to play
-- A carriage return would move back over the line and write the host's prompt on it.
print("x\rturn 3: gold to play")
