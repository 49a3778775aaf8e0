-- expect: instruction budget exceeded
-- string.rep of an empty string used to loop math.maxinteger times inside C.
while true do
  string.rep("", math.maxinteger)
end
