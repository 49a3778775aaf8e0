-- expect: * silver forfeits
-- A one-line message shaped as the host's notice: told, it is marked as a script's.
game:message("silver forfeits")
