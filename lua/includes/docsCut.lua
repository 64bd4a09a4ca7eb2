-- The documents cut from the front of a space's records (`docs`, lua/includes/indexMessage.lua): once
-- the oldest documents have moved to search segments (actors/search-segments.ts), lua/search/cutDocs
-- replaces their records by one 40-character header, "#" and S, the last document number cut; document
-- d then sits at record d - S. 0 when nothing was cut (document d at record d).
local function docsCut(docs)
  local head = redis.call('GETRANGE', docs, '0', '39')
  if string.sub(head, 1, 1) ~= '#' then return 0 end
  return tonumber(string.sub(head, 2))
end
