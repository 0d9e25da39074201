import { PHOTO_UPLOAD } from "@app/contract";
import type { ChangeEvent } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { PHOTO_MAX_MEGABYTES, photoFileProblem } from "./photo-upload";

/**
 * The file picker for one photo (signup step, /profile): a chosen file that passes the browser-side
 * check goes to `onFile`; otherwise `onProblem` gets the translated reason. The picker is emptied
 * either way, so the same file can be chosen again.
 */
export function PhotoFileField({
  id,
  hasPhotos,
  busy,
  onFile,
  onProblem,
  className,
  labelClassName,
}: {
  id: string;
  /** Says "add another photo" instead of "choose a photo". */
  hasPhotos: boolean;
  busy: boolean;
  onFile: (file: File) => void;
  onProblem: (message: string) => void;
  className?: string;
  labelClassName?: string;
}) {
  const intl = useIntl();
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const problem = photoFileProblem(file, intl);
    if (problem) onProblem(problem);
    else onFile(file);
  };
  return (
    <Form.Group controlId={id} className={className}>
      <Form.Label className={labelClassName}>
        <FormattedMessage id={hasPhotos ? "signup.photo_another" : "signup.photo_choose"} />
      </Form.Label>
      <Form.Control
        type="file"
        accept={PHOTO_UPLOAD.types.join(",")}
        onChange={choose}
        disabled={busy}
        aria-describedby={`${id}-hint`}
      />
      <Form.Text id={`${id}-hint`} muted>
        <FormattedMessage id="signup.photo_hint" values={{ megabytes: PHOTO_MAX_MEGABYTES }} />
      </Form.Text>
    </Form.Group>
  );
}
