-- expect: not a function
-- A function slipped through an interface would let one script call into another's closures
-- with its own tables: only values cross.
scryptic.provide("hostile:sink", { take = function(f) return f end })
scryptic.use("hostile:sink").take(function() return storage end)
