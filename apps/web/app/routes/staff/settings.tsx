import { STAFF_SETTINGS_ENDPOINTS } from "@app/contract";
import { useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useStaffQuery } from "../../features/staff/api";
import { SiteSettingsForm } from "../../features/staff/settings/settings-form";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";

/** /staff/settings (admin): each site's Settings fields (spec §3), previewed and saved through the audit log. */
export default function StaffSettings() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.settings.title" });
  const sites = useStaffQuery(STAFF_SETTINGS_ENDPOINTS.settingsSites);
  const [chosen, setChosen] = useState<number | null>(null);
  const list = sites.data?.sites ?? [];
  const site = list.find((s) => s.id === chosen) ?? list[0];
  return (
    <section style={{ maxWidth: 960 }}>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      {sites.error ? <FormAlert>{errorMessage(sites.error, intl)}</FormAlert> : null}
      {list.length > 1 ? (
        <Form.Group controlId="settings-site" className="mb-3" style={{ maxWidth: 360 }}>
          <Form.Label>
            <FormattedMessage id="staff.settings.site" />
          </Form.Label>
          <Form.Select value={site?.id} onChange={(event) => setChosen(Number(event.target.value))}>
            {list.map((s) => (
              <option key={s.id} value={s.id}>
                {s.is_default ? intl.formatMessage({ id: "staff.settings.default_site" }, { host: s.host }) : s.host}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      ) : null}
      {site && sites.data ? (
        // A new key per site: the form starts from what is stored for it.
        <SiteSettingsForm key={site.id} site={site} servedCountries={sites.data.served_countries} />
      ) : null}
    </section>
  );
}
