-- expect: storage cannot keep a function
-- A value no save can hold, which would fail only when the game is saved.
storage.plan = { steps = { function() end } }
