-- expect: instruction budget exceeded
-- Each line is 8 KiB of terminal escapes: the console keeps the latest lines, cut and escaped.
while true do
  print(string.rep("\27[2J", 2000))
end
