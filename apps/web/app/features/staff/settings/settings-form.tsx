import {
  type EditableSettings,
  LOCALES,
  MODERATION_MODES,
  PROFILE_FIELDS,
  RESELL_TILE_KINDS,
  SEARCH_FIELDS,
  type SettingsChange,
  STAFF_SETTINGS_ENDPOINTS,
  type StaffSite,
  settingsProblems,
} from "@app/contract";
import { type ReactNode, useState } from "react";
import { Button, Col, Form, Modal, Row, Table } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage, fieldErrors } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { useStaffMutation } from "../api";
import { useShortcuts } from "../shortcuts";
import { HeaderRow } from "../table";

type Field = keyof EditableSettings;
const FIELDS = Object.keys({
  name: 0,
  index_title: 0,
  description: 0,
  domain_language: 0,
  support_email: 0,
  message_credits: 0,
  photo_credits: 0,
  gift_credits: 0,
  signup_credits: 0,
  message_length: 0,
  refund_days: 0,
  countries: 0,
  minimum_message_costs: 0,
  enable_site_entry_popup: 0,
  site_entry_popup_countries: 0,
  signups: 0,
  logged_out_search: 0,
  logged_out_search_trafficsource: 0,
  search_fields: 0,
  visible_profile_fields: 0,
  cdn_prefix: 0,
  fictional_icon: 0,
  member_resell: 0,
  resell_tiles: 0,
  moderation: 0,
} satisfies Record<Field, 0>) as Field[];

const NUMBER_FIELDS = [
  "message_credits",
  "photo_credits",
  "gift_credits",
  "signup_credits",
  "message_length",
  "refund_days",
] as const;

/** A value as the preview shows it: lists joined, objects as compact JSON, empty as a dash. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return "–";
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ") || "–";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * One site's Settings fields (spec §3) for an admin: edited here, then previewed (what changes, checked
 * by the server as a save is) and saved through the audit log. The rules between fields are checked here
 * first (settingsProblems, the server's own), and every refusal shows on its field.
 */
export function SiteSettingsForm({ site, servedCountries }: { site: StaffSite; servedCountries: readonly string[] }) {
  const intl = useIntl();
  const [values, setValues] = useState<EditableSettings>(site.settings);
  const [changes, setChanges] = useState<SettingsChange[] | null>(null);
  const [saved, setSaved] = useState(false);
  const preview = useStaffMutation(STAFF_SETTINGS_ENDPOINTS.settingsPreview);
  const save = useStaffMutation(STAFF_SETTINGS_ENDPOINTS.settingsSave, ["/staff/api/settings"]);
  const local = settingsProblems(values, servedCountries);
  const failed = save.error ?? preview.error;
  const server = fieldErrors(failed, FIELDS);
  const problemOf = (field: Field): string | undefined =>
    server[field] ?? (local[field] ? intl.formatMessage({ id: `error.${local[field]}` }) : undefined);
  const whole = failed && Object.keys(server).length === 0 ? errorMessage(failed, intl) : null;

  const set = <F extends Field>(field: F, value: EditableSettings[F]) => {
    setSaved(false);
    setValues((current) => ({ ...current, [field]: value }));
  };
  const label = (field: Field) => intl.formatMessage({ id: `staff.settings.${field}` });

  const showPreview = () => {
    if (Object.keys(local).length > 0) return;
    save.reset();
    preview.mutate({ params: { siteId: site.id }, body: values }, { onSuccess: (answer) => setChanges(answer.changes) });
  };
  const confirmSave = () => {
    if (!changes || changes.length === 0) return;
    save.mutate(
      { params: { siteId: site.id }, body: values },
      {
        onSuccess: (answer) => {
          setValues(answer.site.settings);
          setChanges(null);
          setSaved(true);
        },
        onError: () => setChanges(null),
      },
    );
  };
  useShortcuts({ p: showPreview, s: () => (changes ? confirmSave() : undefined), Escape: () => setChanges(null) });

  const toggleCountry = (country: string, on: boolean) => {
    const countries = on ? [...values.countries, country] : values.countries.filter((c) => c !== country);
    // A country the site no longer serves leaves the lists that may only name its countries.
    setSaved(false);
    setValues((current) => ({
      ...current,
      countries,
      site_entry_popup_countries: current.site_entry_popup_countries.filter((c) => countries.includes(c)),
      minimum_message_costs: Object.fromEntries(
        Object.entries(current.minimum_message_costs).filter(([c]) => countries.includes(c)),
      ),
    }));
  };

  return (
    <Form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        showPreview();
      }}
      aria-label={intl.formatMessage({ id: "staff.settings.title" })}
    >
      {whole ? <FormAlert>{whole}</FormAlert> : null}
      {saved ? (
        <FormAlert variant="success">
          <FormattedMessage id="staff.settings.saved" />
        </FormAlert>
      ) : null}

      <Section titleId="staff.settings.section_site">
        <Row>
          <Col md={6}>
            <Text
              id="name"
              label={label("name")}
              value={values.name}
              onChange={(v) => set("name", v)}
              error={problemOf("name")}
            />
          </Col>
          <Col md={6}>
            <Text
              id="support_email"
              label={label("support_email")}
              value={values.support_email}
              onChange={(v) => set("support_email", v)}
              error={problemOf("support_email")}
            />
          </Col>
        </Row>
        <Text
          id="index_title"
          label={label("index_title")}
          hint={intl.formatMessage({ id: "staff.settings.empty_default" })}
          value={values.index_title}
          onChange={(v) => set("index_title", v)}
          error={problemOf("index_title")}
        />
        <Text
          id="description"
          label={label("description")}
          hint={intl.formatMessage({ id: "staff.settings.empty_default" })}
          value={values.description}
          onChange={(v) => set("description", v)}
          error={problemOf("description")}
          rows={2}
        />
        <Choice
          id="domain_language"
          label={label("domain_language")}
          value={values.domain_language ?? ""}
          options={[
            ["", intl.formatMessage({ id: "staff.settings.no_language" })],
            ...LOCALES.map((locale): [string, string] => [locale.code, locale.name]),
          ]}
          onChange={(v) => set("domain_language", v ? (v as EditableSettings["domain_language"]) : null)}
          error={problemOf("domain_language")}
        />
      </Section>

      <Section titleId="staff.settings.section_credits">
        <Row>
          {NUMBER_FIELDS.map((field) => (
            <Col sm={6} lg={4} key={field}>
              <Form.Group controlId={`setting-${field}`} className="mb-3">
                <Form.Label>{label(field)}</Form.Label>
                <Form.Control
                  type="number"
                  inputMode="numeric"
                  value={Number.isFinite(values[field]) ? values[field] : ""}
                  onChange={(event) => set(field, event.target.value === "" ? Number.NaN : Number(event.target.value))}
                  isInvalid={!!problemOf(field)}
                  aria-invalid={problemOf(field) ? true : undefined}
                  aria-describedby={problemOf(field) ? `setting-${field}-error` : undefined}
                />
                <Form.Control.Feedback type="invalid" id={`setting-${field}-error`}>
                  {problemOf(field)}
                </Form.Control.Feedback>
              </Form.Group>
            </Col>
          ))}
        </Row>
      </Section>

      <Section titleId="staff.settings.section_countries">
        <Checks
          id="countries"
          label={label("countries")}
          options={servedCountries}
          chosen={values.countries}
          onToggle={toggleCountry}
          error={problemOf("countries")}
        />
        <fieldset className="mb-3" aria-describedby={problemOf("minimum_message_costs") ? "setting-costs-error" : undefined}>
          <legend className="form-label fs-6">{label("minimum_message_costs")}</legend>
          <Table size="sm" className="align-middle w-auto">
            <HeaderRow ids={["staff.settings.country", "staff.settings.cost", "staff.settings.currency"]} />
            <tbody>
              {values.countries.map((country) => {
                const cost = values.minimum_message_costs[country];
                const setCost = (next: { costs: number; currency: string } | null) => {
                  const costs = { ...values.minimum_message_costs };
                  if (next) costs[country] = next;
                  else delete costs[country];
                  set("minimum_message_costs", costs);
                };
                return (
                  <tr key={country}>
                    <th scope="row">{country}</th>
                    <td>
                      <Form.Control
                        size="sm"
                        type="number"
                        step="0.01"
                        aria-label={`${label("minimum_message_costs")} ${country}`}
                        value={cost?.costs ?? ""}
                        onChange={(event) =>
                          setCost(
                            event.target.value === ""
                              ? null
                              : { costs: Number(event.target.value), currency: cost?.currency ?? "EUR" },
                          )
                        }
                      />
                    </td>
                    <td>
                      <Form.Control
                        size="sm"
                        maxLength={3}
                        aria-label={`${intl.formatMessage({ id: "staff.settings.currency" })} ${country}`}
                        value={cost?.currency ?? ""}
                        disabled={!cost}
                        onChange={(event) => cost && setCost({ costs: cost.costs, currency: event.target.value.toUpperCase() })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
          {problemOf("minimum_message_costs") ? (
            <div className="invalid-feedback d-block" id="setting-costs-error">
              {problemOf("minimum_message_costs")}
            </div>
          ) : null}
        </fieldset>
        <Choice
          id="enable_site_entry_popup"
          label={label("enable_site_entry_popup")}
          value={values.enable_site_entry_popup}
          options={[
            ["yes", intl.formatMessage({ id: "staff.settings.yes" })],
            ["no", intl.formatMessage({ id: "staff.settings.no" })],
          ]}
          onChange={(v) => set("enable_site_entry_popup", v as EditableSettings["enable_site_entry_popup"])}
        />
        <Checks
          id="site_entry_popup_countries"
          label={label("site_entry_popup_countries")}
          options={values.countries}
          chosen={values.site_entry_popup_countries}
          onToggle={(country, on) =>
            set(
              "site_entry_popup_countries",
              on
                ? [...values.site_entry_popup_countries, country]
                : values.site_entry_popup_countries.filter((c) => c !== country),
            )
          }
          error={problemOf("site_entry_popup_countries")}
        />
      </Section>

      <Section titleId="staff.settings.section_access">
        <Row>
          <Col md={4}>
            <Choice
              id="signups"
              label={label("signups")}
              value={values.signups}
              options={(["all", "with_trafficsource", "none"] as const).map((mode): [string, string] => [
                mode,
                intl.formatMessage({ id: `staff.settings.signups_${mode}` }),
              ])}
              onChange={(v) => set("signups", v as EditableSettings["signups"])}
            />
          </Col>
          {(["logged_out_search", "logged_out_search_trafficsource"] as const).map((field) => (
            <Col md={4} key={field}>
              <Choice
                id={field}
                label={label(field)}
                value={values[field]}
                options={[
                  ["all", intl.formatMessage({ id: "staff.settings.shown" })],
                  ["none", intl.formatMessage({ id: "staff.settings.hidden" })],
                ]}
                onChange={(v) => set(field, v as "all" | "none")}
              />
            </Col>
          ))}
        </Row>
        <Choice
          id="moderation"
          label={label("moderation")}
          value={values.moderation}
          options={MODERATION_MODES.map((mode): [string, string] => [
            mode,
            intl.formatMessage({ id: `staff.settings.moderation_${mode}` }),
          ])}
          onChange={(v) => set("moderation", v as EditableSettings["moderation"])}
        />
        <Checks
          id="search_fields"
          label={label("search_fields")}
          options={SEARCH_FIELDS}
          chosen={values.search_fields}
          onToggle={(f, on) =>
            set(
              "search_fields",
              SEARCH_FIELDS.filter((x) => (x === f ? on : values.search_fields.includes(x))),
            )
          }
        />
        <Checks
          id="visible_profile_fields"
          label={label("visible_profile_fields")}
          options={PROFILE_FIELDS}
          chosen={values.visible_profile_fields}
          onToggle={(f, on) =>
            set(
              "visible_profile_fields",
              PROFILE_FIELDS.filter((x) => (x === f ? on : values.visible_profile_fields.includes(x))),
            )
          }
        />
      </Section>

      <Section titleId="staff.settings.section_other">
        <Row>
          <Col md={4}>
            <Text
              id="cdn_prefix"
              label={label("cdn_prefix")}
              value={values.cdn_prefix}
              onChange={(v) => set("cdn_prefix", v)}
              error={problemOf("cdn_prefix")}
            />
          </Col>
          <Col md={4}>
            <Text
              id="fictional_icon"
              label={label("fictional_icon")}
              value={values.fictional_icon}
              onChange={(v) => set("fictional_icon", v)}
              error={problemOf("fictional_icon")}
            />
          </Col>
        </Row>
        <Form.Check
          type="switch"
          id="setting-member_resell"
          className="mb-2"
          label={label("member_resell")}
          checked={values.member_resell}
          onChange={(event) => set("member_resell", event.target.checked)}
        />
        <ResellTiles values={values} set={set} error={problemOf("resell_tiles")} />
      </Section>

      <div className="d-flex align-items-center gap-3 sticky-bottom bg-body py-3 border-top">
        <BusyButton type="submit" busy={preview.isPending} disabled={Object.keys(local).length > 0}>
          <FormattedMessage id="staff.settings.preview" />
        </BusyButton>
        <small className="text-body-secondary">
          <FormattedMessage id="staff.settings.shortcuts" />
        </small>
      </div>

      <Modal show={changes !== null} onHide={() => setChanges(null)} size="lg" aria-labelledby="settings-changes-title">
        <Modal.Header closeButton>
          <Modal.Title id="settings-changes-title">
            <FormattedMessage id="staff.settings.changes_title" />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {changes && changes.length === 0 ? (
            <p className="mb-0">
              <FormattedMessage id="staff.settings.no_changes" />
            </p>
          ) : (
            <Table size="sm" responsive className="mb-0">
              <HeaderRow ids={["staff.settings.field", "staff.settings.before", "staff.settings.after"]} />
              <tbody>
                {(changes ?? []).map((change) => (
                  <tr key={change.field}>
                    <th scope="row">{label(change.field as Field)}</th>
                    <td className="text-break">{shown(change.before)}</td>
                    <td className="text-break fw-semibold">{shown(change.after)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-dark" onClick={() => setChanges(null)}>
            <FormattedMessage id="staff.settings.back" />
          </Button>
          <BusyButton busy={save.isPending} disabled={!changes || changes.length === 0} onClick={confirmSave}>
            <FormattedMessage id="staff.settings.save" />
          </BusyButton>
        </Modal.Footer>
      </Modal>
    </Form>
  );
}

function Section({ titleId, children }: { titleId: string; children: ReactNode }) {
  return (
    <fieldset className="card card-body mb-4">
      <legend className="h5 float-none w-auto px-1 mb-3">
        <FormattedMessage id={titleId} />
      </legend>
      {children}
    </fieldset>
  );
}

function Text(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  rows?: number;
}) {
  const described = [props.hint ? `setting-${props.id}-hint` : "", props.error ? `setting-${props.id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <Form.Group controlId={`setting-${props.id}`} className="mb-3">
      <Form.Label>{props.label}</Form.Label>
      <Form.Control
        {...(props.rows ? { as: "textarea" as const, rows: props.rows } : {})}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        isInvalid={!!props.error}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint ? (
        <Form.Text id={`setting-${props.id}-hint`} className="d-block">
          {props.hint}
        </Form.Text>
      ) : null}
      <Form.Control.Feedback type="invalid" id={`setting-${props.id}-error`}>
        {props.error}
      </Form.Control.Feedback>
    </Form.Group>
  );
}

function Choice(props: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <Form.Group controlId={`setting-${props.id}`} className="mb-3">
      <Form.Label>{props.label}</Form.Label>
      <Form.Select
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        isInvalid={!!props.error}
        aria-invalid={props.error ? true : undefined}
      >
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </Form.Select>
      <Form.Control.Feedback type="invalid">{props.error}</Form.Control.Feedback>
    </Form.Group>
  );
}

function Checks(props: {
  id: string;
  label: string;
  options: readonly string[];
  chosen: readonly string[];
  onToggle: (option: string, on: boolean) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset className="mb-3" aria-describedby={props.error ? `setting-${props.id}-error` : undefined}>
      <legend className="form-label fs-6">{props.label}</legend>
      <div className="d-flex flex-wrap gap-3">
        {props.options.map((option) => (
          <Form.Check
            key={option}
            inline
            id={`setting-${props.id}-${option}`}
            label={option}
            checked={props.chosen.includes(option)}
            onChange={(event) => props.onToggle(option, event.target.checked)}
          />
        ))}
      </div>
      {props.error ? (
        <div className="invalid-feedback d-block" id={`setting-${props.id}-error`}>
          {props.error}
        </div>
      ) : null}
    </fieldset>
  );
}

function ResellTiles({
  values,
  set,
  error,
}: {
  values: EditableSettings;
  set: (field: "resell_tiles", value: EditableSettings["resell_tiles"]) => void;
  error?: string | undefined;
}) {
  const intl = useIntl();
  const tiles = values.resell_tiles;
  const change = (index: number, patch: Partial<EditableSettings["resell_tiles"][number]>) =>
    set(
      "resell_tiles",
      tiles.map((tile, i) => (i === index ? { ...tile, ...patch } : tile)),
    );
  return (
    <fieldset aria-describedby={error ? "setting-resell_tiles-error" : undefined}>
      <legend className="form-label fs-6">
        <FormattedMessage id="staff.settings.resell_tiles" />
      </legend>
      {tiles.map((tile, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tiles have no id; their order is their identity.
        <Row className="g-2 mb-2 align-items-center" key={index}>
          <Col sm={3}>
            <Form.Select
              size="sm"
              aria-label={intl.formatMessage({ id: "staff.settings.tile_kind" })}
              value={tile.kind}
              onChange={(event) => change(index, { kind: event.target.value as (typeof RESELL_TILE_KINDS)[number] })}
            >
              {RESELL_TILE_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </Form.Select>
          </Col>
          <Col sm={5}>
            <Form.Control
              size="sm"
              aria-label={intl.formatMessage({ id: "staff.settings.tile_url" })}
              value={tile.url}
              onChange={(event) => change(index, { url: event.target.value })}
            />
          </Col>
          <Col sm={3}>
            <Form.Control
              size="sm"
              aria-label={intl.formatMessage({ id: "staff.settings.tile_partner" })}
              value={tile.partner}
              onChange={(event) => change(index, { partner: event.target.value })}
            />
          </Col>
          <Col sm={1}>
            <Button
              size="sm"
              variant="outline-danger"
              onClick={() =>
                set(
                  "resell_tiles",
                  tiles.filter((_, i) => i !== index),
                )
              }
            >
              <FormattedMessage id="staff.settings.remove" />
            </Button>
          </Col>
        </Row>
      ))}
      {error ? (
        <div className="invalid-feedback d-block" id="setting-resell_tiles-error">
          {error}
        </div>
      ) : null}
      {tiles.length < 4 ? (
        <Button
          size="sm"
          variant="outline-dark"
          onClick={() => set("resell_tiles", [...tiles, { kind: "resell", url: "https://", partner: "" }])}
        >
          <FormattedMessage id="staff.settings.add_tile" />
        </Button>
      ) : null}
    </fieldset>
  );
}
