-- A journal line's index entries (the members of the journal index): `* ` and each ref's prefix (an
-- object id, or `c:<email> `, `d:<domain> `: indexPrefix in actors/journal.ts), each followed by the
-- line id's body (the id without its `log_`). Written by appendJournal, taken back by space/dropCode.
local function journalIndexMembers(lineId, refsJson)
  local body = string.sub(lineId, 5)
  local members = { '* ' .. body }
  for _, prefix in ipairs(cjson.decode(refsJson)) do members[#members + 1] = prefix .. body end
  return members
end
