import { AccountScreen } from '../../features/account/AccountScreen.tsx';
import { NotificationSettingsSection } from '../../features/notifications/NotificationSettingsSection.tsx';

/** /account-info, with the notification feature's own settings among the account's sections. */
export default function AccountPage() {
  return <AccountScreen notificationSettings={<NotificationSettingsSection />} />;
}
