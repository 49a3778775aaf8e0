-- expect: instruction budget exceeded
while true do
  pcall(table.unpack, {}, 1, 100000)
end
