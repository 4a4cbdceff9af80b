import { Badge, Body1, Button, Caption1, Card, CardFooter, CardPreview, Image, Input, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { demoImageUrl, useGoodsList } from './api';
import { Pager } from '@/components/data/Pager';

const useStyles = makeStyles({
  toolbar: { display: 'flex', columnGap: '8px', marginBottom: '12px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: '16px' },
  img: { width: '100%', aspectRatio: '16 / 9', objectFit: 'cover' },
  body: { display: 'flex', flexDirection: 'column', rowGap: '6px', padding: '0 4px' },
  title: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  desc: { color: tokens.colorNeutralForeground3, display: '-webkit-box', WebkitLineClamp: '2', WebkitBoxOrient: 'vertical', overflow: 'hidden', minHeight: '40px' },
  price: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  labels: { display: 'flex', gap: '4px', flexWrap: 'wrap' },
  footer: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', width: '100%' },
});

/** Goods cards from /goods/getList: image, title, price, labels, company; title filter and paging. */
export default function GoodsPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 12, title: '' });
  const [typed, setTyped] = useState('');
  const { data, isLoading } = useGoodsList(query);
  const money = new Intl.NumberFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-US', { style: 'currency', currency: 'CNY' });
  return (
    <div>
      <form
        className={styles.toolbar}
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ ...query, pageNo: 1, title: typed.trim() });
        }}
      >
        <Input value={typed} onChange={(_, d) => setTyped(d.value)} placeholder={t('dm.goods.filter')} contentBefore={<SearchRegular />} />
        <Button type="submit" appearance="primary">
          {t('dm.common.search')}
        </Button>
      </form>
      {isLoading && !data && <Spinner />}
      <div className={styles.grid}>
        {(data?.list ?? []).map((g) => (
          <Card key={g.uuid}>
            <CardPreview>
              <Image className={styles.img} src={demoImageUrl(g.image)} alt="" />
            </CardPreview>
            <div className={styles.body}>
              <Subtitle2 className={styles.title} title={g.title}>
                {g.title}
              </Subtitle2>
              <span className={styles.price}>{money.format(g.price)}</span>
              <div className={styles.labels}>
                {g.label.map((l, i) => (
                  <Badge key={`${i}-${l}`} appearance="tint" size="small">
                    {l}
                  </Badge>
                ))}
              </div>
              <Body1 className={styles.desc}>{g.description}</Body1>
            </div>
            <CardFooter>
              <div className={styles.footer}>
                <Caption1>{g.company}</Caption1>
              </div>
            </CardFooter>
          </Card>
        ))}
      </div>
      {data && !data.list.length && <Body1>{t('dm.common.empty')}</Body1>}
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} sizes={[12, 24]} onChange={(pageNo, pageSize) => setQuery({ ...query, pageNo, pageSize })} />
    </div>
  );
}
