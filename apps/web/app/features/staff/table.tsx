import { FormattedMessage } from "react-intl";

/** A console table's header row: one column header per message id. */
export function HeaderRow({ ids }: { ids: readonly string[] }) {
  return (
    <thead>
      <tr>
        {ids.map((id) => (
          <th scope="col" key={id}>
            <FormattedMessage id={id} />
          </th>
        ))}
      </tr>
    </thead>
  );
}
