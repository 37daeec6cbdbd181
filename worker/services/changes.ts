/**
 * What an update must write: the fields of `wanted` that were given (undefined means "keep the
 * stored value", the spec's rule for update forms) and differ from the stored `row`. Null when
 * nothing would change, which the contract answers as `{modifiedCount: 0}` without touching D1.
 */
export function changedFields<Row extends object>(row: Row, wanted: Partial<Row>): Partial<Row> | null {
  const changes: Partial<Row> = {};
  for (const key of Object.keys(wanted) as (keyof Row)[]) {
    const value = wanted[key];
    if (value !== undefined && value !== row[key]) changes[key] = value;
  }
  return Object.keys(changes).length === 0 ? null : changes;
}
