import {
  COMPLAINT_DESCRIPTION_MAX,
  COMPLAINT_DESCRIPTION_MIN,
  COMPLAINT_SUBJECTS,
  type ComplaintResponse,
  type ComplaintSubject,
} from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useMember } from "../../lib/member";
import { useApiForm } from "../../lib/use-api-form";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SelectField } from "../../ui/select-field";
import { TextField } from "../../ui/text-field";
import { concernedMemberQuery, sendComplaint } from "./api";

type Field = "subject" | "description" | "email" | "profile_id";

/**
 * The complaint form (/complaints, issue #13): a topic, what happened, the member concerned when the
 * page was opened from a profile (`?profile=`), and an e-mail address from visitors (a member's
 * account address is used). Sent, it shows the reference the confirmation mail also carries.
 */
export function ComplaintForm({ profileId }: { profileId: number | null }) {
  const intl = useIntl();
  const { user } = useMember();
  const [subject, setSubject] = useState("");
  const [description, setDescription] = useState("");
  const [email, setEmail] = useState("");
  const [done, setDone] = useState<ComplaintResponse | null>(null);
  const { formRef, handleSubmit, busy, errors, formError, clearError } = useApiForm<Field>({
    fields: ["subject", "description", "email", "profile_id"],
    fieldOfCode: {
      email_required: "email",
      invalid_email: "email",
      description_too_short: "description",
      description_too_long: "description",
      profile_not_found: "profile_id",
    },
  });
  const concerned = useQuery({ ...concernedMemberQuery(profileId ?? 0), enabled: profileId !== null });
  const doneRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  if (done) {
    return (
      <div ref={doneRef} tabIndex={-1} role="status">
        <h2 className="h4">
          <FormattedMessage id="complaints.done.title" />
        </h2>
        <p className="lead">
          <FormattedMessage
            id="complaints.done.body"
            values={{ reference: <strong>{done.reference}</strong>, email: done.email }}
          />
        </p>
      </div>
    );
  }

  const message = (id: string) => intl.formatMessage({ id });
  const validate = () => {
    const problems: Partial<Record<Field, string>> = {};
    if (!subject) problems.subject = message("complaints.subject.choose");
    const length = description.trim().length;
    if (length < COMPLAINT_DESCRIPTION_MIN) problems.description = message("error.description_too_short");
    else if (length > COMPLAINT_DESCRIPTION_MAX) problems.description = message("error.description_too_long");
    if (!user && !email.trim()) problems.email = message("error.email_required");
    return problems;
  };
  const send = async () => {
    const answer = await sendComplaint({
      subject: subject as ComplaintSubject,
      description: description.trim(),
      ...(profileId !== null ? { profile_id: profileId } : {}),
      ...(user ? {} : { email: email.trim() }),
    });
    setDone(answer);
  };
  const set = (field: Field, setter: (value: string) => void) => (value: string) => {
    setter(value);
    clearError(field);
  };
  const concernedName = concerned.data?.name;

  return (
    <form ref={formRef} onSubmit={handleSubmit(send, { validate })} noValidate>
      <FormAlert>{formError}</FormAlert>
      {profileId !== null ? (
        <div className="mb-3">
          <dl className="mb-0">
            <dt>
              <FormattedMessage id="complaints.member.label" />
            </dt>
            <dd className="mb-0">{concernedName ?? <FormattedMessage id="complaints.member.id" values={{ id: profileId }} />}</dd>
          </dl>
          <input type="hidden" name="profile_id" value={profileId} />
          {errors.profile_id ? (
            <div className="invalid-feedback d-block" role="alert">
              {errors.profile_id}
            </div>
          ) : null}
        </div>
      ) : null}
      <SelectField
        id="complaint-subject"
        label={<FormattedMessage id="complaints.subject.label" />}
        value={subject}
        onChange={set("subject", setSubject)}
        blank={message("complaints.subject.choose")}
        options={COMPLAINT_SUBJECTS.map((value) => ({ value, label: message(`complaints.subject.${value}`) }))}
        error={errors.subject}
      />
      <TextField
        id="complaint-description"
        label={<FormattedMessage id="complaints.description.label" />}
        value={description}
        onChange={set("description", setDescription)}
        rows={6}
        maxLength={COMPLAINT_DESCRIPTION_MAX}
        required
        error={errors.description}
        hint={
          <span aria-live="polite">
            <FormattedMessage
              id="complaints.description.counter"
              values={{ count: description.trim().length, max: COMPLAINT_DESCRIPTION_MAX, min: COMPLAINT_DESCRIPTION_MIN }}
            />
          </span>
        }
      />
      {user ? null : (
        <TextField
          id="complaint-email"
          type="email"
          inputMode="email"
          label={<FormattedMessage id="complaints.email.label" />}
          value={email}
          onChange={set("email", setEmail)}
          autoComplete="email"
          maxLength={254}
          required
          error={errors.email}
          hint={<FormattedMessage id="complaints.email.help" />}
        />
      )}
      <BusyButton type="submit" busy={busy}>
        <FormattedMessage id="complaints.submit" />
      </BusyButton>
    </form>
  );
}
