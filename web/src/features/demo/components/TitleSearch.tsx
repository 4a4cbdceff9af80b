import { Button, Input } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useTranslation } from 'react-i18next';
import { useDraft } from '@/components/list/listParams';

/**
 * The demo lists' title search: what is typed starts at the title in the
 * URL and follows it; a search hands over the trimmed text.
 */
export function TitleSearch({ title, onSearch, placeholder, className, testId }: { title: string; onSearch: (title: string) => void; placeholder: string; className?: string; testId?: string }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useDraft(title);
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <Input value={typed} onChange={(_, d) => setTyped(d.value)} placeholder={placeholder} contentBefore={<SearchRegular />} data-testid={testId} />
      <Button type="submit" appearance="primary">
        {t('dm.common.search')}
      </Button>
    </form>
  );
}
