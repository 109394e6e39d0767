<?xml version="1.0" encoding="UTF-8"?>
<!--
  common.xsl: the frame every breakeven page shares (head, site header,
  footer), imported by run.xsl and compare.xsl.  Input: a <page> document
  built by src/pages/report.c and src/pages/site.c (site settings, links and an
  <annotation> of the facts derived from the run's results).  Edit freely:
  breakeven reads the templates at run time (see README, "The report").
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" encoding="UTF-8" doctype-system="about:legacy-compat" indent="no"/>

  <!-- the single file of a run (report -\-single-file): everything it
       shows is inside it; with no base URL there is no site to link to, so
       its links are left as text rather than pointing at nothing -->
  <xsl:variable name="single" select="/page/@kind = 'single'"/>
  <xsl:variable name="offline" select="$single and /page/site/@absolute != 'yes'"/>

  <!-- the headline chart of a page, for link previews: the speed ratio
       where the page has one (it shows the verdict the description says),
       else the page's first chart -->
  <xsl:variable name="ratio-chart" select="(/page/annotation//chart[@kind = 'speed-ratio'])[1]"/>
  <xsl:variable name="headline"
                select="$ratio-chart | (/page/annotation//chart)[1][not($ratio-chart)]"/>

  <xsl:template name="page">
    <xsl:param name="title"/>
    <xsl:param name="body"/>
    <!-- what a link preview says of the page: the sentence the page leads
         with, passed in by each page's template -->
    <xsl:param name="description"/>
    <xsl:variable name="desc">
      <xsl:choose>
        <xsl:when test="normalize-space($description) != ''"><xsl:value-of select="normalize-space($description)"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="normalize-space($title)"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <!-- an image URL only where it is absolute: a base URL is known -->
    <xsl:variable name="image">
      <xsl:if test="$headline and /page/links/@dir-url">
        <xsl:choose>
          <xsl:when test="starts-with($headline/@png, 'https://') or starts-with($headline/@png, 'http://')">
            <xsl:value-of select="$headline/@png"/>
          </xsl:when>
          <xsl:otherwise><xsl:value-of select="concat(/page/links/@dir-url, $headline/@png)"/></xsl:otherwise>
        </xsl:choose>
      </xsl:if>
    </xsl:variable>
    <html lang="en">
      <head>
        <!-- the page's policy: it loads its stylesheet and its charts from
             the site itself ('self') and nothing else: no script, no style
             or image written into the page (there is none), no font, frame
             or connection; no <base> may move its links, no form send
             anything.  A <meta> policy holds for what follows it: first.
             'self' serves a page opened from disk too: Chromium matches it
             to the file: URLs beside the page (tests/check_pages opens
             every page from file:// and fails on any refusal).  The single
             file carries its charts as data: URIs and its stylesheet in a
             <style>, allowed by that stylesheet's hash alone. -->
        <xsl:choose>
          <xsl:when test="$single">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src '{/page/inline/@style-hash}'; base-uri 'none'; form-action 'none'"/>
          </xsl:when>
          <xsl:otherwise>
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'"/>
          </xsl:otherwise>
        </xsl:choose>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="$title"/></title>
        <meta name="description" content="{$desc}"/>
        <xsl:if test="/page/site/@author != ''">
          <meta name="author" content="{/page/site/@author}"/>
        </xsl:if>
        <meta name="generator" content="{/page/site/@generator}"/>
        <!-- what link previews read (Open Graph, Twitter's card) -->
        <meta property="og:title" content="{normalize-space($title)}"/>
        <meta property="og:description" content="{$desc}"/>
        <!-- a site's front and its lists are the site; a run's page, a
             network's and a comparison are articles of it -->
        <xsl:variable name="website" select="/page/@kind = 'index' or /page/@kind = 'archive' or /page/@kind = 'history'"/>
        <xsl:choose>
          <xsl:when test="$website"><meta property="og:type" content="website"/></xsl:when>
          <xsl:otherwise><meta property="og:type" content="article"/></xsl:otherwise>
        </xsl:choose>
        <meta property="og:site_name">
          <xsl:attribute name="content">
            <xsl:choose>
              <xsl:when test="/page/site/@title != ''"><xsl:value-of select="/page/site/@title"/></xsl:when>
              <xsl:otherwise>breakeven</xsl:otherwise>
            </xsl:choose>
          </xsl:attribute>
        </meta>
        <xsl:if test="/page/links/@url">
          <meta property="og:url" content="{/page/links/@url}"/>
        </xsl:if>
        <xsl:if test="/page/annotation/@datetime and not($website)">
          <meta property="article:published_time" content="{/page/annotation/@datetime}"/>
        </xsl:if>
        <xsl:choose>
          <xsl:when test="$image != ''">
            <meta property="og:image" content="{$image}"/>
            <meta property="og:image:alt" content="{$headline/@alt}"/>
            <meta name="twitter:card" content="summary_large_image"/>
          </xsl:when>
          <xsl:otherwise><meta name="twitter:card" content="summary"/></xsl:otherwise>
        </xsl:choose>
        <meta name="twitter:title" content="{normalize-space($title)}"/>
        <meta name="twitter:description" content="{$desc}"/>
        <xsl:choose>
          <xsl:when test="$single"><style><xsl:value-of select="/page/inline/style"/></style></xsl:when>
          <xsl:otherwise><link rel="stylesheet" href="{/page/links/@css}"/></xsl:otherwise>
        </xsl:choose>
        <xsl:if test="not($offline)">
          <link rel="alternate" type="application/rss+xml" title="breakeven feed" href="{/page/links/@feed}"/>
        </xsl:if>
      </head>
      <body>
        <header class="site">
          <xsl:variable name="name">
            <xsl:choose>
              <xsl:when test="/page/site/@title != ''"><xsl:value-of select="/page/site/@title"/></xsl:when>
              <xsl:otherwise>breakeven</xsl:otherwise>
            </xsl:choose>
          </xsl:variable>
          <xsl:choose>
            <xsl:when test="$offline"><span class="home"><xsl:value-of select="$name"/></span></xsl:when>
            <xsl:otherwise>
              <a class="home" href="{/page/links/@home}"><xsl:value-of select="$name"/></a>
              <a class="history" href="{concat(substring-before(/page/links/@home, 'index.html'), 'history.html')}">History</a>
              <a class="feed" href="{/page/links/@feed}">RSS feed</a>
            </xsl:otherwise>
          </xsl:choose>
        </header>
        <main>
          <xsl:copy-of select="$body"/>
        </main>
        <footer class="site">
          <p>Generated by <xsl:value-of select="/page/site/@generator"/> from the results files
          it measured; every number on this page comes from them.</p>
        </footer>
      </body>
    </html>
  </xsl:template>

  <!-- a link, or its text alone where the page has nowhere to link to
       (the single file without a base URL) -->
  <xsl:template name="link">
    <xsl:param name="href"/>
    <xsl:param name="text"/>
    <xsl:choose>
      <xsl:when test="$offline"><xsl:value-of select="$text"/></xsl:when>
      <xsl:otherwise><a href="{$href}"><xsl:value-of select="$text"/></a></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- a chart: the PNG (1.75× for sharp screens) linking to itself; on a
       phone its narrow rendering, drawn for that width with legible text.
       In the single file both renderings are inside it (@src, @narrow-src:
       data: URIs), linked to the published chart where there is a site -->
  <xsl:template match="chart">
    <xsl:variable name="picture">
      <picture>
        <xsl:if test="@narrow-png and /page/@kind != 'feed-item'">
          <!-- the inlined rendering where there is one, else the file -->
          <source media="(max-width: 600px)" srcset="{@narrow-src}{@narrow-png[not(../@narrow-src)]}" width="{@narrow-width}" height="{@narrow-height}"/>
        </xsl:if>
        <img src="{@src}{@png[not(../@src)]}" width="{@width}" height="{@height}" alt="{@alt}" loading="lazy"/>
      </picture>
    </xsl:variable>
    <figure class="chart">
      <xsl:choose>
        <xsl:when test="$offline"><xsl:copy-of select="$picture"/></xsl:when>
        <xsl:otherwise><a href="{@png}"><xsl:copy-of select="$picture"/></a></xsl:otherwise>
      </xsl:choose>
      <figcaption><xsl:value-of select="p"/></figcaption>
    </figure>
  </xsl:template>
</xsl:stylesheet>
