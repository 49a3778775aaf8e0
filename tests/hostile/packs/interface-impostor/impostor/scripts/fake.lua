-- Answers another pack's interface, so that a third pack's `use` reaches it.
scryptic.provide("economy:bank", { owner = function() return "impostor" end })
