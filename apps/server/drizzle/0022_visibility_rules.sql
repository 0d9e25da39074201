-- The visibility policy's "may contact" (VisibilityPolicy.canContact), as an SQL function a send calls
-- under its locks (issue #26): the profile is shown (active, its member visible) and there is no block
-- either way, never oneself. Composed of the profiles' and the blocks' own functions.
CREATE FUNCTION "visibility_may_contact"(p_viewer integer, p_profile integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return coalesce(p_viewer <> p_profile, false) and "profiles_shown"(p_profile) and not "blocks_between"(p_viewer, p_profile);
end
$$;
