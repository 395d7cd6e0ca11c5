import { IconMapOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MessagePanel } from '../components/MessagePanel.tsx';
import { iconSize } from '../lib/icons.ts';

export function NotFoundScreen() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('notFound.title')} | ${t('app.name')}`;
  }, [t]);
  return (
    <MessagePanel
      icon={<IconMapOff size={iconSize('lg')} />}
      color="gray"
      title={t('notFound.title')}
      body={t('notFound.body')}
      action={{ label: t('notFound.home'), to: '/' }}
    />
  );
}
