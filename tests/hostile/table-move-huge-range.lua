-- expect: instruction budget exceeded
-- table.move over 2^63 indices, all nil: no memory, endless work.
table.move({}, 1, math.maxinteger, 1)
