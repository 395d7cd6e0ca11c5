import { DomainConfigScreen, type DomainConfigPanels } from '../../features/domain/DomainConfigScreen.tsx';
import { ApiKeysTab } from '../../features/integrations/ApiKeysTab.tsx';
import { DomainNotificationsTab } from '../../features/notifications/DomainNotificationsTab.tsx';

const PANELS: DomainConfigPanels = {
  notifications: (domainId) => <DomainNotificationsTab domainId={domainId} />,
  integrations: (domainId) => <ApiKeysTab domainId={domainId} />,
};

/** /domain-config, with the notification and integration features' tabs. */
export default function DomainConfigPage() {
  return <DomainConfigScreen panels={PANELS} />;
}
