-- Issue #29: the search's default order is nearby first (the member's country, then the distance bucket
-- between city centres, online now, newest), a top-N sort of every match that no index can give in order.
-- This index holds every column that sort and the page read (the filtered columns as keys, the card's and
-- the order's columns included), so the matches are read from the index alone (no heap visit per match);
-- only the page's 24 rows then look up their photo. Decision 018, "Nearby first".
CREATE INDEX IF NOT EXISTS "profiles_nearby" ON "profiles" ("status", "country", "gender", "birth_date")
  INCLUDE ("id", "user_id", "latitude", "longitude", "created_at", "name", "city", "fictional");
