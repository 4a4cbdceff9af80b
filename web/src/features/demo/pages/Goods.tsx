import { Badge, Body1, Caption1, Card, CardFooter, CardPreview, Image, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { demoImageUrl, useGoodsList } from '../api/demo';
import { Pager } from '@/components/data/Pager';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { TitleSearch } from '../components/TitleSearch';

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

/** The list's state in the URL: title filter, page, page size (one the pager offers). */
const SIZES = [12, 24];
const LIST_DEFAULTS = { title: '', page: 1, size: 12 };
const LIST_OPTIONS = { allowed: { size: SIZES } };
const useRows = (p: typeof LIST_DEFAULTS) => useGoodsList(pageQuery(p));

/** Goods cards from /goods/getList: image, title, price, labels, company; title filter and paging. */
export default function GoodsPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const list = useListPage(LIST_DEFAULTS, useRows, LIST_OPTIONS);
  const { params, set, data } = list;
  const money = new Intl.NumberFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-US', { style: 'currency', currency: 'CNY' });
  return (
    <div>
      <TitleSearch className={styles.toolbar} title={params.title} onSearch={(title) => set({ title, page: 1 })} placeholder={t('dm.goods.filter')} />
      {list.loading && <Spinner />}
      <div className={styles.grid}>
        {(data?.list ?? []).map((g) => (
          <Card key={g.uuid}>
            <CardPreview>
              <Image className={styles.img} src={demoImageUrl(g.image)} alt="" />
            </CardPreview>
            <div className={styles.body}>
              <Subtitle2 className={styles.title} title={g.title} translate="no">
                {g.title}
              </Subtitle2>
              <span className={styles.price}>{money.format(g.price)}</span>
              <div className={styles.labels}>
                {g.label.map((l, i) => (
                  <Badge key={`${i}-${l}`} appearance="tint" size="small" translate="no">
                    {l}
                  </Badge>
                ))}
              </div>
              <Body1 className={styles.desc} translate="no">
                {g.description}
              </Body1>
            </div>
            <CardFooter>
              <div className={styles.footer}>
                <Caption1 translate="no">{g.company}</Caption1>
              </div>
            </CardFooter>
          </Card>
        ))}
      </div>
      {data && !data.list.length && <Body1>{t('dm.common.empty')}</Body1>}
      <Pager {...list.pager} sizes={SIZES} />
    </div>
  );
}
