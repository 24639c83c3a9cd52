/** A path id is a positive integer; anything else names no record, so it is a 404 like an unknown id. */
export function pathId(raw: string | undefined, notFound: () => Error): number {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) throw notFound();
  return Number(raw);
}
