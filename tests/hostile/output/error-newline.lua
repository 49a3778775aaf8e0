-- expect: game over: gold wins
-- A newline in an error would start a line that reads as the game's end.
error("boom\ngame over: gold wins (silver holds no city)")
