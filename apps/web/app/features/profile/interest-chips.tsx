import { INTEREST_KEYS, type InterestKey, PROFILE_LIMITS } from "@app/contract";
import { Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { type InterestsLoader, useInterests } from "../../lib/reference-data";

/**
 * The interests as toggle chips (the profile form and the signup's interests step): at most
 * PROFILE_LIMITS.interestsMax, with the count in the hint. `id` prefixes the ids; the fieldset itself
 * has `id` and can take focus (the completeness meter leads to it).
 */
export function InterestChips({
  id,
  value,
  onChange,
  loadInterests,
  error,
}: {
  id: string;
  value: readonly InterestKey[];
  onChange: (next: InterestKey[]) => void;
  loadInterests: InterestsLoader;
  error?: string;
}) {
  const intl = useIntl();
  const loaded = useInterests(loadInterests, intl.locale);
  // Without the server's list the catalogue still names every interest key.
  const interests = loaded.failed
    ? INTEREST_KEYS.map((key) => ({ key, label: intl.formatMessage({ id: `interest.${key}` }) }))
    : loaded.interests;
  const full = value.length >= PROFILE_LIMITS.interestsMax;
  const toggle = (key: InterestKey, on: boolean) => {
    const next = on ? [...value, key] : value.filter((k) => k !== key);
    if (next.length <= PROFILE_LIMITS.interestsMax) onChange(next);
  };
  return (
    <fieldset id={id} tabIndex={-1} className="mb-4" aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}>
      <legend className="form-label fs-6 mb-1">
        <FormattedMessage id="profile.interests" />
      </legend>
      <p id={`${id}-hint`} className="form-text mt-0 mb-2" aria-live="polite">
        <FormattedMessage id="profile.interests_hint" values={{ count: value.length, max: PROFILE_LIMITS.interestsMax }} />
      </p>
      {interests === null ? (
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">
            <FormattedMessage id="profile.loading" />
          </span>
        </Spinner>
      ) : (
        <div className="d-flex flex-wrap gap-2">
          {interests.map((interest) => {
            const key = interest.key as InterestKey;
            const checked = value.includes(key);
            const chipId = `${id}-${interest.key}`;
            return (
              <div key={interest.key}>
                <input
                  type="checkbox"
                  className="btn-check"
                  id={chipId}
                  checked={checked}
                  disabled={!checked && full}
                  onChange={(event) => toggle(key, event.target.checked)}
                  aria-invalid={error ? true : undefined}
                />
                <label className="btn btn-sm btn-outline-primary rounded-pill" htmlFor={chipId}>
                  {interest.label}
                </label>
              </div>
            );
          })}
        </div>
      )}
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}
