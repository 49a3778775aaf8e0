-- expect: custom events wait to be handled
-- Custom events emitted without end from one handler: the queue is bounded, so the handler
-- stops with an error instead of growing the host.
for i = 1, math.maxinteger do
    scryptic.emit("hostile:flood", { n = i, text = string.rep("x", 100) })
end
