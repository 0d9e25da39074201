-- Issue #29: a member's search, nearby first, is read outward in rings (the asker's country within 25,
-- 100 and 250 km, then the rest), stopping once a page is full (decision 018, "Nearby first"). Each ring
-- is a latitude band around the member's city centre: this index gives it as a range after the filtered
-- keys, with the longitude (checked in the index) and every column the page and its order read, so a
-- ring is read from the index alone and only its rows are sorted and photo-checked.
CREATE INDEX IF NOT EXISTS "profiles_rings" ON "profiles" ("status", "country", "gender", "latitude")
  INCLUDE ("longitude", "birth_date", "id", "user_id", "created_at", "name", "city", "fictional");
