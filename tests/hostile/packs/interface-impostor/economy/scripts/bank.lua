scryptic.provide("bank", { owner = function() return "economy" end })
