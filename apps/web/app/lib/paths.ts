/** Whether `pathname` is one of `paths` (a trailing slash does not count): the alerts' "not shown on" lists. */
export function onPath(pathname: string, paths: readonly string[]): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  return paths.includes(path);
}
