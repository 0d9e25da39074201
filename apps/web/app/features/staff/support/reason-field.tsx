import { FormattedMessage } from "react-intl";
import { TextField } from "../../../ui/text-field";

/** The written reason every support write asks for (kept in the audit log; 5 to 500 characters). */
export function ReasonField(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hintId?: string;
}) {
  return (
    <TextField
      id={props.id}
      rows={3}
      maxLength={500}
      label={<FormattedMessage id="staff.support.reason" />}
      hint={<FormattedMessage id={props.hintId ?? "staff.support.reason_hint"} />}
      value={props.value}
      onChange={props.onChange}
      required
      error={props.error}
    />
  );
}
