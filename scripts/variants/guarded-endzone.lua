-- House rule (the project's own): a guarded end zone.
--   1. A touchdown does not count while an active piece of the defending
--      coach stands in that end zone (a guard): play goes on, and the
--      touchdown counts after the first later action of the scorer once
--      no guard is left (knock it down, or tactically dodge it away).
--   2. One guard at a time: a piece may not enter its own end zone (move,
--      dodge exit, tactical dodge, block or protect there) while a
--      team-mate already guards it.
-- Both hooks only read the game: `touchdown_counts` is asked before a
-- touchdown is scored, `allow` about each action of a legal list.

--- The other coach.
---@param team Team
---@return Team
local function other(team)
  if team == "ATK" then return "DEF" end
  return "ATK"
end

--- An active piece of `team` in the end zone where `scorer` scores; a
--- stack's bottom is under a piece and guards nothing.
---@param game Game
---@param team Team
---@param scorer Team
---@return Piece|nil
local function guard(game, team, scorer)
  for _, id in ipairs(game.pieces(team)) do
    local p = game.piece(id)
    if not p.down and game.in_scoring_zone(p.at, scorer) then
      local s = game.stack_at(p.at)
      if not (s and s.bottom == id) then
        return id
      end
    end
  end
  return nil
end

--- Where an action takes its piece, for the verbs that enter a square.
local landing = {
  move = "to",
  dodge = "exit",
  tdodge = "to",
  block = "to",
  protect = "to",
}

---@type Variant
return {
  name = "guarded-endzone",
  text = "A touchdown does not count while an active defender stands in that end zone; one such guard at a time.",

  ---@param game Game
  ---@param team Team
  touchdown_counts = function(game, team)
    return guard(game, other(team), team) == nil
  end,

  ---@param game Game
  ---@param action ActionInfo
  allow = function(game, action)
    local key = landing[action.verb]
    if not key then return true end
    local me = game.to_move()
    local to = action[key]
    if not game.in_scoring_zone(to, other(me)) then return true end
    local g = guard(game, me, other(me))
    if g and g ~= action.piece then
      return false, g .. " already guards this end zone (one guard at a time)"
    end
    return true
  end,
}
