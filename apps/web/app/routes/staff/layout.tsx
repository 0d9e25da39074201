import { STAFF_AUTH_ENDPOINTS } from "@app/contract";
import { useState } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { data, NavLink, Outlet, useLoaderData, useRouteError } from "react-router";
import { staffFetch } from "../../features/staff/api";
import { StaffProvider } from "../../features/staff/context";
import { StaffLoginForm } from "../../features/staff/login-form";
import { navFor } from "../../features/staff/nav";
import { servicesContext } from "../../server-context";
import { ErrorPage } from "../../ui/error-page";
import { PageTitle } from "../../ui/page-title";
import { ProgressBar } from "../../ui/progress-bar";
import type { Route } from "./+types/layout";

/**
 * The console's frame (issue #27): its own sidebar, no member navigation, never indexed. Without a staff
 * session every /staff page is the staff login, except to a member: a member's session never opens the
 * console, and to a logged-in member there is nothing under /staff at all (404, as the staff API
 * answers them). Staff sign in from a browser that is not logged in as a member.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const staff = await services.currentStaff();
  const headers = { "x-robots-tag": "noindex, nofollow", "cache-control": "no-store" };
  if (!staff && (await services.currentUser())) throw data(null, { status: 404, headers });
  return data({ staff }, { headers });
}

export const handle = { hideEntryWarning: true };

export function meta() {
  return [{ name: "robots", content: "noindex, nofollow" }];
}

export default function StaffLayout() {
  const { staff } = useLoaderData<typeof loader>();
  const intl = useIntl();
  const [leaving, setLeaving] = useState(false);
  if (!staff) {
    const title = intl.formatMessage({ id: "staff.login.title" });
    return (
      <main id="main" className="app-main staff-login container py-5" style={{ maxWidth: 440 }}>
        <PageTitle title={title} />
        <h1 id="staff-login-title" className="h3 mb-4">
          {title}
        </h1>
        <StaffLoginForm />
      </main>
    );
  }
  const logout = async () => {
    setLeaving(true);
    await staffFetch(STAFF_AUTH_ENDPOINTS.logout).catch(() => undefined);
    window.location.assign("/staff");
  };
  return (
    <StaffProvider staff={staff}>
      <ProgressBar />
      <div className="staff-console d-flex min-vh-100">
        <nav
          className="staff-nav bg-dark text-light p-3 flex-shrink-0"
          aria-label={intl.formatMessage({ id: "staff.nav.label" })}
        >
          <p className="fw-bold mb-1">
            <FormattedMessage id="staff.console" />
          </p>
          <p className="small text-light mb-3">
            {staff.name} · <FormattedMessage id={`staff.role.${staff.role}`} />
          </p>
          <ul className="nav nav-pills flex-column gap-1">
            {navFor(staff.role).map((item) => (
              <li className="nav-item" key={item.to}>
                <NavLink to={item.to} end={item.to === "/staff"} className="nav-link text-light">
                  <FormattedMessage id={item.label} />
                </NavLink>
              </li>
            ))}
          </ul>
          <Button variant="outline-light" size="sm" className="mt-4" onClick={logout} disabled={leaving}>
            <FormattedMessage id="staff.logout" />
          </Button>
        </nav>
        <main id="main" className="app-main staff-main flex-grow-1 p-4">
          <Outlet />
        </main>
      </div>
    </StaffProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <main id="main" className="app-main">
      <ErrorPage error={error} />
    </main>
  );
}
