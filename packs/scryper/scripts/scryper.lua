-- Scryper (its rules are the pack's README.md), the whole game: the engine keeps the bricks, who sees
-- which value, and the secret set-up; this script says what the moves are and what they do.
--
-- White is the seat "gold", brown "silver" (the mode's rules name them). Cells are x, y from
-- 0 at the top left; moves are written with the board's cell names (row 1 at the top):
--   "field 3 C8"   put one of your available 3s on C8 (set-up, in secret)
--   "ready"        your set-up is complete (at least one brick fielded)
--   "C8-C6"        move a brick one or two steps in a straight line
--   "C6xC5"        move onto an opponent's brick: a battle
--   "pass"         when no brick of yours can move

local WHITE, BROWN = "gold", "silver"
local DIRECTIONS = {
    {-1, -1}, {0, -1}, {1, -1},
    {-1, 0}, {1, 0},
    {-1, 1}, {0, 1}, {1, 1},
}

local function other(player)
    if player == WHITE then return BROWN end
    return WHITE
end

-- A setting of the pack (a game made without the pack has none: the decided defaults).
local function setting(game, id, default)
    return game:setting(id, default)
end

-- a player's back line is their edge row; white's is the bottom one.
local function back_row(game, player)
    if player == WHITE then return game:height() - 1 end
    return 0
end

-- Cell names, made once: a search lists thousands of moves a second.
local names = {}
local function cell_name(game, x, y)
    local key = y * 64 + x
    local name = names[key]
    if not name then
        name = game:cell_name(x, y)
        names[key] = name
    end
    return name
end

-- the higher value wins; equal values, the attacker; a 1 beats a 4.
local function attacker_wins(attack, defence)
    if attack == 1 and defence == 4 then return true end
    if attack == 4 and defence == 1 then return false end
    return attack >= defence
end

local function score(game, player)
    return game:count(player, "score")
end

local function can_field(game, player)
    return game:count(player, "available") > 0
end

-- when neither player can field a brick, more bricks in the Score pit win; the end says
-- so, with the sets each won (a set won because the other had no brick scores no brick).
local function end_by_score(game)
    local white, brown = score(game, WHITE), score(game, BROWN)
    local won = function(player) return game:get("_sets_won_" .. player) or 0 end
    local reason = ("no bricks left to field: Score pits %s %d, %s %d (sets won %d and %d; a set won because the other had no brick scores none)"):format(
        WHITE, white, BROWN, brown, won(WHITE), won(BROWN))
    if white > brown then
        game:end_game(WHITE, reason)
    elseif brown > white then
        game:end_game(BROWN, reason)
    else
        game:end_game("draw", reason)
    end
end

-- a set begins with the secret set-up of every player who has bricks left.
local function start_set(game)
    for _, player in ipairs(game:seats()) do
        if score(game, player) >= setting(game, "sets_to_win", 3) then return end
    end
    local choosing = {}
    for _, player in ipairs(game:seats()) do
        if can_field(game, player) then choosing[#choosing + 1] = player end
    end
    if #choosing == 0 then
        end_by_score(game)
        return
    end
    game:choose_in_secret(choosing)
end

-- the set's winner; `scorer` (if any) goes to their Score pit, every other brick on
-- the board to its owner's Used pit, shown. the loser starts the next set.
local function end_set(game, winner, scorer, why)
    for _, player in ipairs(game:seats()) do
        for _, brick in ipairs(game:pieces(player)) do
            if scorer and brick.id == scorer.id then
                game:to_pit(brick.id, "score")
                -- Shown "for the rest of the set": hidden again in the Score pit.
                game:hide(brick.id)
            else
                game:to_pit(brick.id, "used")
                game:show(brick.id)
            end
        end
    end
    game:say(("set %d to %s: %s"):format(game:get("set"), winner, why))
    game:set("_sets_won_" .. winner, (game:get("_sets_won_" .. winner) or 0) + 1)
    game:set("set", game:get("set") + 1)
    game:set("starter", other(winner))
    start_set(game)
end

local function setup(game)
    local of_each = setting(game, "of_each", 4)
    for _, player in ipairs(game:seats()) do
        for value = 1, 4 do
            for _ = 1, of_each do
                game:add{owner = player, kind = "brick", value = value, pit = "available"}
            end
        end
    end
    game:set("set", 1)
    -- White starts the first set, unless a match gives this game to the loser of the last.
    game:set("starter", game:first())
    start_set(game)
end

-- The set-up moves: any available value on any free cell of the back line, while fewer than
-- the most a set takes are fielded; "ready" once at least one is.
local function setup_moves(game, player)
    local moves = {}
    local fielded = #game:pieces(player)
    if fielded < setting(game, "per_set", 6) then
        local values = {}
        for _, brick in ipairs(game:pit(player, "available")) do values[brick.value] = true end
        local row = back_row(game, player)
        for value = 1, 4 do
            if values[value] then
                for x = 0, game:width() - 1 do
                    if not game:at(x, row) then
                        moves[#moves + 1] = ("field %d %s"):format(value, cell_name(game, x, row))
                    end
                end
            end
        end
    end
    if fielded > 0 then moves[#moves + 1] = "ready" end
    return moves
end

-- one or two steps in one of eight directions, through an empty first cell, never
-- onto an own brick; onto an opponent's is a battle.
local function brick_moves(game, player)
    local moves = {}
    local width, height = game:width(), game:height()
    -- Who holds each cell, read once: a lookup in a Lua table is far cheaper than a call.
    local owners = game:owners()
    for _, brick in ipairs(game:pieces(player)) do
        local bx, by = brick.x, brick.y
        local from = cell_name(game, bx, by)
        for _, d in ipairs(DIRECTIONS) do
            for step = 1, 2 do
                local x, y = bx + d[1] * step, by + d[2] * step
                if x < 0 or y < 0 or x >= width or y >= height then break end
                local owner = owners[y * width + x + 1]
                if owner == player then break end
                local sign = owner and "x" or "-"
                moves[#moves + 1] = from .. sign .. cell_name(game, x, y)
                if owner then break end
            end
        end
    end
    if #moves == 0 then moves[1] = "pass" end
    return moves
end

local function moves(game, player)
    if game:secret() then return setup_moves(game, player) end
    return brick_moves(game, player)
end

-- Why a move typed is not legal, in a player's words (the table as `moves` sees it).
local function why_not_setup(game, player, move)
    local value, cell = move:match("^field (%d) (%u%d+)$")
    if move == "ready" then return "field at least one brick first" end
    if not value then return "a set-up move is `field VALUE CELL` (field 3 C8) or `ready`" end
    if #game:pieces(player) >= setting(game, "per_set", 6) then
        return ("a set takes at most %d bricks"):format(setting(game, "per_set", 6))
    end
    local available = 0
    for _, brick in ipairs(game:pit(player, "available")) do
        if brick.value == tonumber(value) then available = available + 1 end
    end
    if available == 0 then return ("you have no %s left to field"):format(value) end
    local ok, x, y = pcall(game.cell, game, cell)
    if not ok or not x then return cell .. " is not on the board" end
    if y ~= back_row(game, player) then
        return ("you field on your back line, row %d"):format(back_row(game, player) + 1)
    end
    return cell .. " already holds a brick"
end

local function why_not_brick(game, player, move)
    local from, sign, to = move:match("^(%u%d+)([x%-])(%u%d+)$")
    if not from then
        return "a move is FROM-TO (C8-C6), an attack FROMxTO (C6xC5)"
    end
    local okf, fx, fy = pcall(game.cell, game, from)
    local okt, x, y = pcall(game.cell, game, to)
    if not (okf and fx and fy and okt and x and y) then return "both cells must be on the board" end
    local _, owner = game:at(fx, fy)
    if owner ~= player then return "you have no brick on " .. from end
    local dx, dy = x - fx, y - fy
    local steps = math.max(math.abs(dx), math.abs(dy))
    if steps == 0 or (dx ~= 0 and dy ~= 0 and math.abs(dx) ~= math.abs(dy)) then
        return "a brick moves in a straight line, in one of the eight directions"
    end
    if steps > 2 then return "a brick moves one or two steps, not " .. steps end
    if steps == 2 and game:at(fx + dx // 2, fy + dy // 2) then
        return "a two-step move needs the first cell empty"
    end
    local _, target = game:at(x, y)
    if target == player then return "you never move onto your own brick" end
    if target and sign == "-" then return ("%s holds a brick: attack it with an x (%sx%s)"):format(to, from, to) end
    if not target and sign == "x" then return ("%s is empty: move there with a - (%s-%s)"):format(to, from, to) end
    return nil
end

local function why_not(game, player, move)
    if game:secret() then return why_not_setup(game, player, move) end
    return why_not_brick(game, player, move)
end

local function play_setup(game, player, move)
    if move == "ready" then
        game:done(player)
        return
    end
    local value, cell = move:match("^field (%d) (%u%d+)$")
    local x, y = game:cell(cell)
    -- Any brick of the value: which one it is says nothing of the others.
    local bricks = {}
    for _, brick in ipairs(game:pit(player, "available")) do
        if brick.value == tonumber(value) then bricks[#bricks + 1] = brick end
    end
    if #bricks == 0 then error("no available brick of value " .. value) end
    game:move(bricks[math.random(#bricks)].id, x, y)
end

-- a battle; returns the brick that stands on the cell afterwards.
local function battle(game, attacker, defender, x, y)
    local winner, loser = defender, attacker
    if attacker_wins(attacker.value, defender.value) then
        winner, loser = attacker, defender
    end
    game:to_pit(loser.id, "used")
    game:show(loser.id)
    if winner == attacker then game:move(attacker.id, x, y) end
    game:show(winner.id)
    game:say(("%s's %d beats %s's %d at %s"):format(
        winner.owner, winner.value, loser.owner, loser.value, game:cell_name(x, y)))
    return game:piece_at(x, y)
end

local function play_brick(game, player, move)
    local from, to = move:match("^(%u%d+)[x%-](%u%d+)$")
    local fx, fy = game:cell(from)
    local x, y = game:cell(to)
    local brick = game:piece_at(fx, fy)
    local target = game:piece_at(x, y)
    local standing
    if target then
        standing = battle(game, brick, target, x, y)
    else
        game:move(brick.id, x, y)
        standing = game:piece_at(x, y)
    end
    -- a brick on the opponent's back line wins the set.
    if standing.owner == player and y == back_row(game, other(player)) then
        end_set(game, player, standing, "a brick reached the back line")
        return
    end
    -- a player with no brick left on the board loses the set.
    for _, seat in ipairs(game:seats()) do
        if #game:pieces(seat) == 0 then
            end_set(game, other(seat), nil, seat .. " has no brick left on the board")
            return
        end
    end
    game:turn(other(player))
end

local function play(game, player, move)
    if game:secret() then
        play_setup(game, player, move)
    elseif move == "pass" then
        game:turn(other(player))
    else
        play_brick(game, player, move)
    end
end

-- The set-ups are made together: a player who fielded nothing loses the set;
-- otherwise the set's starter moves first.
local function revealed(game)
    for _, player in ipairs(game:seats()) do
        if #game:pieces(player) == 0 then
            end_set(game, other(player), nil, player .. " fielded no brick, so no brick scores")
            return
        end
    end
    game:turn(game:get("starter"))
end

-- the first with enough bricks in the Score pit wins.
local function end_if(game)
    local needed = setting(game, "sets_to_win", 3)
    for _, player in ipairs(game:seats()) do
        if score(game, player) >= needed then
            local won = score(game, player)
            return player, ("%s won %d %s"):format(player, won, won == 1 and "set" or "sets")
        end
    end
end

-- How well `player` stands, 0 to 1, for the AI's playouts cut short: sets won count most,
-- then bricks left to play, then how near the nearest brick is to the far line.
local function standing(game, player)
    local rival = other(player)
    local needed = setting(game, "sets_to_win", 3)
    local sets = (score(game, player) - score(game, rival)) / needed
    local function left(seat)
        return game:count(seat, "available") + #game:pieces(seat)
    end
    local total = 4 * setting(game, "of_each", 4)
    local bricks = (left(player) - left(rival)) / total
    local function nearest(seat)
        local target, best = back_row(game, other(seat)), game:height()
        for _, brick in ipairs(game:pieces(seat)) do
            best = math.min(best, math.abs(brick.y - target))
        end
        return best
    end
    local race = (nearest(rival) - nearest(player)) / game:height()
    return 0.5 + 0.3 * sets + 0.05 * bricks + 0.15 * race
end

scryptic.game_mode{
    why_not = why_not,
    help = [[
How Scryper is played: each of you has bricks worth 1 to 4 in your Available pit; your
opponent sees a value only once the rules show it. A set begins with both of you choosing in
secret which bricks to field on your back line (white row 8, brown row 1):
  field VALUE CELL     put a brick of that value on a cell of your back line (field 3 C8)
  ready                your set-up is done (once at least one brick is fielded)
Then you take turns moving one brick one or two steps in a straight line, any of the eight
directions (C8-C6); moving onto an opponent's brick is an attack, written with an x (C6xC5):
the higher value wins, equal values the attacker, and a 1 beats a 4. The loser is used, its
value shown. The first brick to reach the other's back line wins the set and goes to your
Score pit; a player left with no brick on the board, or who fields none, loses the set. The
first to score the sets the game asks (three, unless set otherwise) wins; when neither can
field a brick, the fuller Score pit wins. `moves` lists what you may type.]],
    score = standing,
    setup = setup,
    moves = moves,
    play = play,
    revealed = revealed,
    end_if = end_if,
}
