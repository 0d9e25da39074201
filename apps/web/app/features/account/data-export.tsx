import { ENDPOINTS } from "@app/contract";
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ApiCallError, downloadFile } from "../../lib/api";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { SettingsSection } from "../../ui/settings-section";

/**
 * Settings: "Download my data" (GDPR art. 15/20, issue #27): the ZIP of everything the site holds on
 * the member, built by GET /api/export.php. Fetched rather than linked, so that a refusal (the rate
 * limit) shows its translated message here instead of a page of JSON.
 */
export function DataExportSettings() {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [state, setState] = useState<{ error: string } | "done" | null>(null);

  const download = async () => {
    setBusy(true);
    setState(null);
    try {
      await downloadFile(ENDPOINTS.dataExport.path);
      setState("done");
    } catch (error) {
      setState({
        error: error instanceof ApiCallError && error.body ? error.body.message : intl.formatMessage({ id: "error.network" }),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection name="export" titleId="settings.export_title">
      <p>
        <FormattedMessage id="settings.export_body" />
      </p>
      {state && state !== "done" ? <FormAlert>{state.error}</FormAlert> : null}
      {state === "done" ? (
        <FormAlert variant="success">
          <FormattedMessage id="settings.export_done" />
        </FormAlert>
      ) : null}
      <BusyButton variant="outline-primary" busy={busy} onClick={download}>
        <FormattedMessage id={busy ? "settings.export_busy" : "settings.export_button"} />
      </BusyButton>
    </SettingsSection>
  );
}
