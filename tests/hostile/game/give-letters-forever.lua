-- expect: the most a rack holds
-- Letters given again and again would grow the rack without end.
for _ = 1, math.maxinteger do
    game:give_letters("gold", "AEIOUAEIOU")
end
